import { ErrorBody, SellerProfile, SellerProfileUpdate } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { SellerProfileService } from './service.js';

const tags = ['Seller profile'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
const ABOUT =
  "An addition of Billow's, not in the Kelviq API: who sells, in this environment, as the hosted checkout, the portal, " +
  'invoices and emails show it to buyers and tax offices. ';

export function sellerProfileRoutes(app: App, service: SellerProfileService): void {
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
    async (request) => service.get(scopeOf(request)),
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
          'Each update counts a version and sends `seller_profile.updated` with the fields it changed in `previous_attributes`.',
        body: SellerProfileUpdate,
        response: { 200: SellerProfile, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.body),
  );
}
