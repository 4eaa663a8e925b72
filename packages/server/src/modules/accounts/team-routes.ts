import { browserLanguage } from '../../page-kit/locale.js';
import {
  ErrorBody,
  Invitation,
  InvitationList,
  Member,
  MemberInvite,
  MemberList,
  MemberUpdate,
  PageQuery,
  TeamPath,
  NoContent,
} from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { rootUrl } from '../../http/urls.js';
import type { TeamService } from './team.service.js';

const tags = ['Team'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const ABOUT =
  "An addition of Billow's, not in the Kelviq API: the people of the organization (the same in both environments). " +
  'With a session, only owners and admins may change the team, and only an owner may make, change or remove an owner. ';

/** The team through the public API (decision 0076): members, their roles, invitations. */
export function teamRoutes(app: App, team: TeamService, publicUrl: string | null): void {
  app.get(
    '/api/v1/members/',
    { config: { auth: SERVER_ONLY }, schema: { tags, summary: 'List the members', description: ABOUT, querystring: PageQuery, response: { 200: MemberList, ...errors } } },
    async (request) => {
      const page = pageRequest(request.query);
      const { count, results } = await team.members(scopeOf(request).organizationId, page);
      return pageOf(request, page, count, results);
    },
  );

  app.post(
    '/api/v1/members/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Invite a member',
        description: `${ABOUT}Mails the email a link to /dashboard/accept-invitation (valid 7 days) and answers the invitation; an open invitation of the same email is replaced. 409 when the email is already a member. Where this installation sends no email (no SMTP), nothing is mailed and the answer carries the link as \`acceptUrl\`, to hand over yourself.`,
        body: MemberInvite,
        response: { 201: Invitation, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await team.invite(scopeOf(request), request.body, rootUrl(request, publicUrl), browserLanguage(request.headers['accept-language']))),
  );

  app.patch(
    '/api/v1/members/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: "Change a member's role", description: `${ABOUT}An organization keeps at least one owner (409).`, params: TeamPath, body: MemberUpdate, response: { 200: Member, ...errors } },
    },
    async (request) => team.updateRole(scopeOf(request), request.params.id, request.body.role),
  );

  app.delete(
    '/api/v1/members/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Remove a member',
        description: `${ABOUT}Their sessions stop authenticating the organization at once. An organization keeps at least one owner (409).`,
        params: TeamPath,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await team.remove(scopeOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/invitations/',
    { config: { auth: SERVER_ONLY }, schema: { tags, summary: 'List the open invitations', description: ABOUT, querystring: PageQuery, response: { 200: InvitationList, ...errors } } },
    async (request) => {
      const page = pageRequest(request.query);
      const { count, results } = await team.invitations(scopeOf(request).organizationId, page);
      return pageOf(request, page, count, results);
    },
  );

  app.delete(
    '/api/v1/invitations/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'Revoke an invitation', description: `${ABOUT}Its link stops working.`, params: TeamPath, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await team.revokeInvitation(scopeOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
