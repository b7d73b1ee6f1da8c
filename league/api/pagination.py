from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    """``?page=N`` (from 1) and ``?page_size=N`` (up to 200; 50 unless given)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
