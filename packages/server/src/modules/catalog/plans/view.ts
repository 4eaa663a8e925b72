import type { LicenseConfig, Plan, PlanFile } from '@billow/contract';
import type * as repo from './repo.js';

export function fileDownloadUrl(apiBase: string, identifier: string, fileId: string): string {
  return `${apiBase}/catalog/plans/${encodeURIComponent(identifier)}/file/${fileId}/download/`;
}

export function toPlanFile(row: repo.FileRow, identifier: string, apiBase: string): PlanFile {
  const downloadUrl = fileDownloadUrl(apiBase, identifier, row.id);
  const { id, name, ordering, enabled } = row;
  return { id, name, file: downloadUrl, ordering, enabled, downloadUrl, size: Number(row.size), contentType: row.content_type };
}

export function statusOf(plan: repo.PlanRow, version: repo.VersionRow): Plan['status'] {
  if (version.published_at === null) return 'draft';
  return plan.published_version === version.version ? 'published' : 'superseded';
}

export function toPlan(plan: repo.PlanRow, version: repo.VersionRow, files: repo.FileRow[], apiBase: string): Plan {
  const status = statusOf(plan, version);
  return {
    identifier: plan.identifier,
    name: version.name,
    description: version.description,
    product: plan.product_id,
    metadata: version.metadata,
    version: version.version,
    isLatest: status === 'published',
    status,
    isArchived: plan.archived_at !== null,
    isVisible: version.is_visible,
    isImported: false,
    countries: [],
    details: {},
    license: version.license as LicenseConfig | null,
    links: version.links,
    files: files.filter((f) => f.plan_version_id === version.id).map((f) => toPlanFile(f, plan.identifier, apiBase)),
    ordering: version.ordering,
    createdOn: version.created_at.toISOString(),
    modifiedOn: version.modified_at.toISOString(),
  };
}
