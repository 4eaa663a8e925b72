import fs from 'node:fs';
import path from 'node:path';
import { DASHBOARD_DIST } from '../../paths.js';


export interface DashboardFile {
  type: string;
  body: Buffer;
}

export interface DashboardFiles {
  /** The single page's HTML, or null when the dashboard was not built. */
  index: Buffer | null;
  /** The built assets by their path under assets/ (each name carries its content hash). */
  assets: Map<string, DashboardFile>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Reads the built dashboard once, at start: a few hundred kilobytes held in memory, never a path from a request. */
export function loadDashboardFiles(dir: string = DASHBOARD_DIST): DashboardFiles {
  const indexPath = path.join(dir, 'index.html');
  const index = fs.existsSync(indexPath) ? fs.readFileSync(indexPath) : null;
  const assets = new Map<string, DashboardFile>();
  const assetDir = path.join(dir, 'assets');
  if (fs.existsSync(assetDir)) {
    for (const name of fs.readdirSync(assetDir)) {
      const type = TYPES[path.extname(name)];
      if (type) assets.set(name, { type, body: fs.readFileSync(path.join(assetDir, name)) });
    }
  }
  return { index, assets };
}
