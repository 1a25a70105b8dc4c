const TOKEN_AUTHORIZATION = /^Token ([^\s]+)$/;

/**
 * The token from `Authorization: Token <token>`: the word Token, one space, the token. A bare
 * token, another scheme, or anything else is no token at all (the contract rejects them alike).
 */
export function tokenFromAuthorization(header: string | undefined): string | null {
  if (header === undefined) return null;
  return TOKEN_AUTHORIZATION.exec(header)?.[1] ?? null;
}
