import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * A browser without a browser, for the account page's server-side tests: it keeps the cookies
 * the site sets (and drops those it clears), and posts forms as urlencoded bodies with the CSRF
 * token of the last page it loaded that had a form, unless told to leave it out. remoteAddress stands in for
 * the client's address (the per-address throttles); headers are sent with every request (X-Forwarded-For behind a proxy).
 */
export interface FormClient {
  cookies: Map<string, string>;
  /** The last page's HTML. */
  body: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, fields: Record<string, string>, options?: { csrf?: boolean }): Promise<LightMyRequestResponse>;
  /** The CSRF token of the last page that had a form. */
  csrf(): string;
}

export function formClient(app: FastifyInstance, options: { remoteAddress?: string; headers?: Record<string, string> } = {}): FormClient {
  const cookies = new Map<string, string>();
  const headers = () => ({
    ...options.headers,
    ...(cookies.size === 0 ? {} : { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') }),
  });
  const remember = (res: LightMyRequestResponse) => {
    for (const c of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const cleared = c.value === '' || c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() < Date.now());
      if (cleared) cookies.delete(c.name);
      else cookies.set(c.name, c.value);
    }
    return res;
  };
  let token: string | null = null;
  const page = (res: LightMyRequestResponse) => {
    client.body = res.body;
    token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? token;
    return res;
  };
  const client: FormClient = {
    cookies,
    body: '',
    async get(url) {
      return page(remember(await app.inject({ method: 'GET', url, headers: headers(), remoteAddress: options.remoteAddress })));
    },
    async post(url, fields, opts = {}) {
      const form = new URLSearchParams(opts.csrf === false ? fields : { _csrf: client.csrf(), ...fields });
      const res = remember(
        await app.inject({
          method: 'POST',
          url,
          headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: form.toString(),
          remoteAddress: options.remoteAddress,
        }),
      );
      return page(res);
    },
    csrf() {
      if (token === null) throw new Error('no page with a form loaded yet');
      return token;
    },
  };
  return client;
}

/** The text of a page's <main>, tags stripped and spaces folded: what a reader is told. */
export function mainText(html: string): string {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? html;
  return main
    .replace(/<input[^>]*name="_csrf"[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
