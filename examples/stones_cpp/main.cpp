// C++ bot: plays the first legal move (finds it in the JSON by hand: "legal_moves":["r,c",...).
#include <iostream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"type\":\"end\"") != std::string::npos) break;
        if (line.find("\"type\":\"turn\"") == std::string::npos) continue;
        std::size_t at = line.rfind("\"legal_moves\":[\"");
        std::size_t start = at + 16;
        std::size_t stop = line.find('"', start);
        std::cout << line.substr(start, stop - start) << std::endl;
    }
    return 0;
}
