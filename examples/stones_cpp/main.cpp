// Stones starter bot in C++17: the protocol and the rules written out by hand (no engine).
//
// The referee sends one JSON object per line: "start" once, "turn" whenever it is your move,
// "end" at the close. Answer each turn with one line, the move "row,col" (0-based), and flush.
// A turn's observation holds "board":["..#..", ...]: '#' a stone, 'x' a cell next to a stone
// (blocked for both players), '.' free. Whoever has no free cell on their turn loses. The
// free cells are exactly the legal moves, so this bot reads only the board (a real bot would
// use a JSON library; the board's strings hold no escapes, so plain searching is enough).
//
// The strategy is the Python starter's (examples/stones/main.py): for each free cell, the
// first rule that tells the moves apart decides:
//   1. a move that leaves the opponent no free cell wins at once;
//   2. never leave the opponent a reply that would leave you no free cell;
//   3. prefer a board that is point-symmetric about the centre: every reply then has a free
//      mirror image (the first player on an odd board takes the centre, then mirrors);
//   4. otherwise leave as few free cells as possible.
// Where to improve: search deeper (a 5 x 5 game is short), or cache positions judged before.
//
//   python -m sandbox play stones examples/stones_cpp builtin:random --games 40
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

using Board = std::vector<std::string>;

// The strings of "board":[...] in a turn message.
Board read_board(const std::string& line) {
    Board board;
    std::size_t at = line.find("\"board\":[");
    if (at == std::string::npos) return board;
    at += 9;
    while (line[at] == '"') {
        std::size_t stop = line.find('"', at + 1);
        board.push_back(line.substr(at + 1, stop - at - 1));
        at = stop + 1;
        if (line[at] == ',') ++at;
    }
    return board;
}

// A copy of the board with a stone on (r, c).
Board place(Board board, int r, int c) {
    int n = board.size();
    for (int y = r - 1; y <= r + 1; ++y)
        for (int x = c - 1; x <= c + 1; ++x)
            if (y >= 0 && y < n && x >= 0 && x < n && board[y][x] == '.') board[y][x] = 'x';
    board[r][c] = '#';
    return board;
}

std::vector<std::pair<int, int>> free_cells(const Board& board) {
    std::vector<std::pair<int, int>> cells;
    for (int r = 0; r < (int)board.size(); ++r)
        for (int c = 0; c < (int)board.size(); ++c)
            if (board[r][c] == '.') cells.emplace_back(r, c);
    return cells;
}

bool symmetric(const Board& board) {
    int n = board.size();
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            if (board[r][c] != board[n - 1 - r][n - 1 - c]) return false;
    return true;
}

// Smaller is better; tuples compare rule by rule.
std::tuple<bool, bool, bool, int> value(const Board& board, int r, int c) {
    Board child = place(board, r, c);
    auto replies = free_cells(child);
    bool they_win = false;
    for (auto [y, x] : replies)
        if (free_cells(place(child, y, x)).empty()) they_win = true;
    return {!replies.empty(), they_win, !symmetric(child), (int)replies.size()};
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find("\"type\":\"end\"") != std::string::npos) break;
        if (line.find("\"type\":\"turn\"") == std::string::npos) continue;
        Board board = read_board(line);
        auto moves = free_cells(board);
        auto best = moves.front();
        auto best_value = value(board, best.first, best.second);
        for (auto [r, c] : moves) {
            auto v = value(board, r, c);
            if (v < best_value) best = {r, c}, best_value = v;
        }
        std::cout << best.first << ',' << best.second << std::endl;  // endl flushes
    }
    return 0;
}
