import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueId, type TestOrg, type TestServer } from './harness.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
afterAll(() => server.close());

/** Every `$ref` in the document, with the JSON pointer it names. */
function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else refsOf(item, found);
    }
  }
  return found;
}

function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!at || typeof at !== 'object' || !(part in at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, served without a key', async () => {
    const res = await server.request('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');

    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    for (const ref of refsOf(res.body)) {
      expect(resolvePointer(res.body, ref), `unresolved $ref ${ref}`).toBeDefined();
    }
  });

  it('documents the customers and partner paths with their methods', async () => {
    const { body: doc } = await server.request('GET', '/api/v1/openapi.json');
    const methodsOf = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    expect(methodsOf('/api/v1/customers/')).toEqual(['get', 'post']);
    expect(methodsOf('/api/v1/customers/{customerId}/')).toEqual(['delete', 'get', 'patch']);
    expect(methodsOf('/api/v1/partner/organizations/')).toEqual(['get', 'post']);
    expect(methodsOf('/api/v1/partner/organizations/{identifier}/')).toEqual(['get']);
    expect(methodsOf('/api/v1/partner/organizations/by-external-id/{externalId}/')).toEqual(['get']);

    // Operational and documentation routes stay out of the API reference; the dashboard's session routes are in it, with the cookie as credential.
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/') && !p.startsWith('/dashboard/api/'))).toEqual([]);
    expect(doc.paths['/dashboard/api/session'].get.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths['/api/v1/openapi.json']).toBeUndefined();

    // Partner routes take the partner key header, the others a bearer key.
    expect(doc.components.securitySchemes.partnerKey).toMatchObject({ type: 'apiKey', in: 'header' });
    expect(doc.paths['/api/v1/partner/organizations/'].post.security).toEqual([{ partnerKey: [] }]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);

    const create = doc.paths['/api/v1/customers/'].post;
    const bodySchema = create.requestBody.content['application/json'].schema;
    expect(bodySchema.required).toContain('customerId');
    expect(bodySchema.additionalProperties).toBe(false);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '409']));
    const list = doc.paths['/api/v1/customers/'].get;
    expect(list.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['query:page', 'query:page_size', 'query:search']),
    );
  });

  it('describes the responses the API really sends', async () => {
    const customerId = uniqueId('oas');
    const created = await server.request('POST', '/api/v1/customers/', {
      key: org.production.serverKey,
      body: { customerId, name: 'Documented', metadata: { a: 1 }, billingAddress: { country: 'FR' } },
    });
    expect(created.status).toBe(201);
    const listed = await server.request('GET', '/api/v1/customers/', { key: org.production.serverKey });
    const missing = await server.request('GET', '/api/v1/customers/nobody/', { key: org.production.serverKey });

    const validator = new Validator();
    await validator.validate((await server.request('GET', '/api/v1/openapi.json')).body);
    const doc = validator.resolveRefs() as any;
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const schemaFor = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].schema;

    const checks: [unknown, unknown][] = [
      [schemaFor('/api/v1/customers/', 'post', '201'), created.body],
      [schemaFor('/api/v1/customers/{customerId}/', 'get', '200'), created.body],
      [schemaFor('/api/v1/customers/', 'get', '200'), listed.body],
      [schemaFor('/api/v1/customers/{customerId}/', 'get', '404'), missing.body],
    ];
    for (const [schema, body] of checks) {
      const validate = ajv.compile(schema as object);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('is the same document under the sandbox prefix', async () => {
    const production = await server.request('GET', '/api/v1/openapi.json');
    const sandbox = await server.request('GET', '/sandbox/api/v1/openapi.json');
    expect(sandbox.status).toBe(200);
    expect(sandbox.body).toEqual(production.body);
    expect(production.body.servers.map((s: { url: string }) => s.url)).toEqual(['/', '/sandbox']);
  });
});

describe('docs page', () => {
  it('serves an HTML page whose scripts, styles and API document load', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();

    const assets = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]!);
    const scripts = assets.filter((a) => a.endsWith('.js'));
    const styles = assets.filter((a) => a.endsWith('.css'));
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    for (const asset of [...scripts, ...styles]) {
      const res = await fetch(new URL(asset, page.url));
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('content-type'), asset).toMatch(asset.endsWith('.js') ? /javascript/ : /text\/css/);
      expect((await res.text()).length, asset).toBeGreaterThan(0);
    }

    // The page's initializer loads the document from ./json beside it.
    const initializer = scripts.find((s) => s.includes('initializer'));
    expect(initializer).toBeDefined();
    const init = await (await fetch(new URL(initializer!, page.url))).text();
    const specPath = /url:\s*resolveUrl\('([^']+)'\)/.exec(init)?.[1];
    expect(specPath).toBeDefined();
    const base = page.url.endsWith('/') ? page.url : `${page.url}/`;
    const spec = await fetch(new URL(specPath!, base));
    expect(spec.status).toBe(200);
    const api = await server.request('GET', '/api/v1/openapi.json');
    expect(await spec.json()).toEqual(api.body);
  });

  it("is Billow's own: its title, mark and favicon, no other brand, no field that loads another document", async () => {
    const page = await fetch(`${server.url}/docs/`);
    const html = await page.text();
    expect(html).toContain('<title>Billow API reference</title>');
    expect(html).not.toMatch(/Swagger UI<\/title>|favicon-32x32|fastify/i);
    const favicon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1];
    expect(favicon).toBeDefined();
    const icon = await fetch(new URL(favicon!, page.url));
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, expect.stringContaining('image/svg+xml')]);
    expect(await icon.text()).toMatch(/^<svg /);
    const initializer = /src="([^"]*swagger-initializer\.js)"/.exec(html)?.[1];
    const init = await (await fetch(new URL(initializer!, page.url))).text();
    expect(init).toContain('data:image/svg+xml;base64,');
    expect(init).toMatch(/validatorUrl: null/);
    expect(init).toMatch(/"requestSnippetsEnabled":true/);
    const theme = /href="([^"]*theme\/billow\.css)"/.exec(html)?.[1];
    expect(await (await fetch(new URL(theme!, page.url))).text()).toContain('.download-url-wrapper { display: none; }');
  });

  it('is reachable under the sandbox prefix too', async () => {
    const page = await fetch(`${server.url}/sandbox/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
  });
});

describe('the samples and guides of the reference', () => {
  it('shows every operation with curl and @billow/sdk, and with the official client where it has the call', async () => {
    const { body: doc } = await server.request('GET', '/api/v1/openapi.json');
    const lacking: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { description?: string }>>)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        const text = operation.description ?? '';
        if (!text.includes('**curl**') || !/\*\*@billow\/sdk\*\*\n\n```ts\nawait billow\.[a-zA-Z.]+\(/.test(text)) lacking.push(`${method} ${path}`);
      }
    }
    expect(lacking).toEqual([]);
    const create = doc.paths['/api/v1/customers/'].post.description as string;
    expect(create).toContain("await billow.customers.create({ customerId: 'cus_ada' });");
    expect(create).toContain('**Official client (@kelviq/node-sdk)**');
    expect(create).toContain(`-H 'Content-Type: application/json' -d '{"customerId":"cus_ada"}'`);
    expect(doc.paths['/api/v1/partner/organizations/'].get.description).toContain('X-Billow-Partner-Key: $BILLOW_PARTNER_KEY');
  });

  it("links the guides of docs/, each served as a page of Billow's own, text and pictures only", async () => {
    const { body: doc } = await server.request('GET', '/api/v1/openapi.json');
    const links = [...(doc.info.description as string).matchAll(/\]\((\/docs\/guides\/[a-z0-9-]+)\)/g)].map((m) => m[1]!);
    expect(links).toContain('/docs/guides/webhooks');
    expect(links.length).toBeGreaterThanOrEqual(15);
    for (const link of links) {
      const page = await fetch(`${server.url}${link}`);
      expect(page.status, link).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(await page.text(), link).toMatch(/<h1[^>]*>.+<\/h1>/);
    }
    const webhooks = await (await fetch(`${server.url}/docs/guides/webhooks`)).text();
    // Links between guides lose their .md; screenshots are served beside them.
    expect(webhooks).not.toMatch(/href="[a-z-]+\.md/);
    const index = await (await fetch(`${server.url}/sandbox/docs/guides/`)).text();
    expect(index).toContain('href="/sandbox/docs/guides/billing"');
    const screenshot = await fetch(`${server.url}/docs/guides/images/api-reference.png`);
    expect([screenshot.status, screenshot.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('serves nothing outside docs/: other files, other folders and unknown names are 404', async () => {
    for (const path of ['/docs/guides/images/..%2F..%2Fpackage.json', '/docs/guides/..%2FREADME', '/docs/guides/no-such-guide', '/docs/guides/images/../../package.json', '/docs/guides/decisions/..%2F..%2Fpackage']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('"name": "billow"');
    }
  });
});

