"""``/api/me/tokens/``: a member's API tokens, listed (never their keys), made (the key shown
in the answer, once) and revoked. Managing tokens takes the session or a token with every
scope (accounts.scopes.EVERY), so that no token can make itself a token of more power."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import tokens
from accounts.scopes import EVERY, SCOPES
from core.fields import Text


class TokenIn(serializers.Serializer):
    name = Text(max_length=tokens.NAME_LENGTH, help_text="so that you know it in the list")
    scopes = serializers.ListField(
        child=serializers.ChoiceField(choices=SCOPES),
        min_length=1,
        max_length=len(SCOPES),
        help_text="what the token may do (accounts.scopes; the token scheme lists them)",
    )
    expires = serializers.DateTimeField(
        allow_null=True,
        default=None,
        help_text="when it stops working (in the future), or null for never",
    )


class TokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="the key's first characters, to tell tokens apart")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPES))
    created = serializers.DateTimeField(source="created_at")
    expires = serializers.DateTimeField(source="expires_at", allow_null=True)
    expired = serializers.SerializerMethodField()
    last_used = serializers.DateTimeField(
        source="last_used_at", allow_null=True, help_text="to the minute"
    )
    from_password = serializers.BooleanField(
        help_text="made by signing in with a password (POST /api/auth/token/)"
    )

    def get_expired(self, token) -> bool:
        return token.expired()


class TokenMadeOut(TokenOut):
    key = serializers.CharField(help_text="the key: shown this once, never again")


class TokensApi(APIView):
    """Your API tokens, newest first (those revoked are not listed); POST makes one."""

    scopes = {"GET": EVERY, "POST": EVERY}

    @extend_schema(responses=TokenOut(many=True))
    def get(self, request):
        return Response(TokenOut(tokens.tokens_of(request.user), many=True).data)

    @extend_schema(
        request=TokenIn,
        responses={
            201: TokenMadeOut,
            409: OpenApiResponse(description="you hold as many tokens as a member may (100)"),
            422: OpenApiResponse(description="an expiry that is not in the future"),
        },
    )
    def post(self, request):
        body = TokenIn(data=request.data)
        body.is_valid(raise_exception=True)
        made, key = tokens.token_create(user=request.user, **body.validated_data)
        response = Response({**TokenOut(made).data, "key": key}, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"  # the key, once: kept by no cache
        return response


class TokenRevokeApi(APIView):
    """Revoke one of your tokens: refused from now on everywhere, streams open with it ended
    within a keep-alive. Someone else's, or one already revoked, is a 404."""

    scopes = {"DELETE": EVERY}

    @extend_schema(responses={204: None})
    def delete(self, request, pk):
        tokens.token_revoke(user=request.user, token_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
