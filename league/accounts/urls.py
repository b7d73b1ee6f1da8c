from django.contrib.auth import views as auth_views
from django.urls import path

from league.accounts import views
from league.accounts.forms import ThrottledLoginForm
from league.ids import IdConverter  # noqa: F401 (registers <id:…>, ids 1..2^63-1)

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(
        template_name="accounts/login.html", authentication_form=ThrottledLoginForm,
        redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(
        template_name="accounts/password_done.html"), name="password_change_done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(
        template_name="accounts/password_reset_sent.html"), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(
        template_name="accounts/password_reset_done.html"), name="password_reset_complete"),
    path("profile/", views.profile, name="profile"),
    path("email/", views.email_change_view, name="email-change"),
    path("email/again/", views.email_resend, name="email-resend"),
    path("email/confirm/<str:token>/", views.email_confirm, name="email-confirm"),
    path("tokens/", views.tokens, name="tokens"),
    path("tokens/<id:token_id>/revoke/", views.token_revoke_view, name="token-revoke"),
]
