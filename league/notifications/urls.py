from django.urls import path

from league.notifications import views

urlpatterns = [
    path("", views.notification_settings, name="notifications"),
    path("webhook/", views.webhook_save, name="notifications-webhook"),
    path("webhook/secret/", views.webhook_secret, name="notifications-webhook-secret"),
    path("webhook/remove/", views.webhook_delete, name="notifications-webhook-remove"),
]
