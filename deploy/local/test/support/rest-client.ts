export interface RestResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  body: any;
}

/** Speaks to a gateway as one API token, with the headers the REST contract asks every client for. */
export function restClient(baseUrl: string, token: string) {
  const send = async (method: string, path: string, body?: unknown): Promise<RestResponse> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Token ${token}`,
        'X-Client-System': 'test',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown) => send('POST', path, body),
  };
}

/** The smallest valid account: the fields the contract requires on create. */
export function accountInput(code: string) {
  return {
    code,
    company_name: 'Local Test ApS',
    legal_address: 'Vesterbrogade 1',
    legal_zipcode: '1620',
    legal_city: 'København V',
    legal_country: 'DK',
  };
}

/** POST then GET one account through a gateway; the caller checks both answers. */
export async function accountRoundTrip(baseUrl: string, token: string, code: string) {
  const api = restClient(baseUrl, token);
  const created = await api.post('/api/v1/accounts/', accountInput(code));
  const fetched = await api.get(`/api/v1/accounts/${code}/`);
  return { created, fetched };
}
