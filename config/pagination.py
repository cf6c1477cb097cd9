"""The API's pages of a list: DRF's, strict about ``?page=``."""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination

from core import inputs


class PageNumbers(PageNumberPagination):
    """``?page=N``, a whole number from 1, given once (the schema says an integer). DRF reads
    an empty one as page 1, several as the last, and ``last`` as the last page."""

    def get_page_number(self, request, paginator):
        given = request.query_params.getlist(self.page_query_param)
        if not given:
            return 1
        number = inputs.whole_number_or_none(given[0], 1, inputs.BIGINT)
        if len(given) > 1 or number is None:
            raise NotFound(self.invalid_page_message.format(page_number=given[0], message=""))
        return number
