import { ErrorBody, SellerProfile, SellerProfileUpdate } from '@billow/contract';
import { Type } from 'typebox';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { rootUrl } from '../../http/urls.js';
import type { SellerProfileService } from './service.js';

const tags = ['Seller profile'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
const ABOUT =
  "An addition of Billow's, not in the Kelviq API: who sells, in this environment, as the hosted checkout, the portal, " +
  'invoices and emails show it to buyers and tax offices. ';

export function sellerProfileRoutes(app: App, service: SellerProfileService, publicUrl: string | null): void {
  app.get(
    '/api/v1/seller-profile/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "Retrieve the seller's profile",
        description: ABOUT + "Until it is first updated it answers the defaults: the organization's name, English, UTC, version 0.",
        response: { 200: SellerProfile, ...errors },
      },
    },
    async (request) => service.get(scopeOf(request), rootUrl(request, publicUrl)),
  );

  app.patch(
    '/api/v1/seller-profile/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "Update the seller's profile",
        description:
          ABOUT +
          'Fields left out are kept; null clears a field (displayName falls back to the organization\'s name). ' +
          '`taxRegistrations` replaces the list; each tax id is checked against its country\'s format and check digits. ' +
          '`logoImageKey` takes a fileKey from POST /media/ (a PNG or JPEG of at most 256 KiB, 16 to 2000 px a side), which Billow keeps and serves at `logoUrl`. ' +
          'Each update counts a version and sends `seller_profile.updated` with the fields it changed in `previous_attributes`.',
        body: SellerProfileUpdate,
        response: { 200: SellerProfile, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.body, rootUrl(request, publicUrl)),
  );

  // Public: pages and mail show the logo to anyone. One address per logo, so it never changes.
  app.get(
    '/seller-logos/:environmentId/:digest',
    {
      config: { auth: 'public' },
      schema: { hide: true, params: Type.Object({ environmentId: Type.String({ format: 'uuid' }), digest: Type.String({ pattern: '^[0-9a-f]{32}\\.(png|jpg)$' }) }) },
    },
    async (request, reply) => {
      const logo = await service.logo(request.params.environmentId, request.params.digest);
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      return reply.type(logo.contentType).send(Buffer.from(logo.bytes));
    },
  );
}
