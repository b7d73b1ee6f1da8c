from django.urls import path

from league.ops import views

urlpatterns = [
    path("health/", views.health, name="health"),
    path("ops/", views.status_page, name="ops-status"),
    path("ops/status.json", views.status_json, name="ops-status-json"),
]
