from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("league.web.urls")),
    path("", include("league.ops.urls")),
    path("account/notifications/", include("league.notifications.urls")),
    path("account/", include("league.accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("league.api.urls")),
]

handler404 = "league.web.views.page_not_found"
handler500 = "league.web.views.server_error"
