import fs from 'node:fs';
import path from 'node:path';
import { DOCS_DIR } from '../../paths.js';

export interface Guide {
  /** The file's name without `.md`, as it is addressed: `billing`, `decisions/0019-edge-cache`. */
  name: string;
  title: string;
}

const NAME = /^(decisions\/)?[a-z0-9][a-z0-9-]*$/;
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.gif': 'image/gif' };

/** A guide's first heading, as plain text (its Markdown marks dropped). */
export const titleOf = (markdown: string, fallback: string): string =>
  /^#\s+(.+)$/m.exec(markdown)?.[1]?.replace(/[`*_]/g, '').trim() ?? fallback;

export class GuideLibrary {
  constructor(private readonly root: string = DOCS_DIR) {}

  /** The guides of docs/ (not the decision records), by file name. */
  list(): Guide[] {
    let files: string[];
    try {
      files = fs.readdirSync(this.root).filter((file) => file.endsWith('.md')).sort();
    } catch {
      return [];
    }
    return files.map((file) => {
      const name = file.slice(0, -3);
      return { name, title: titleOf(fs.readFileSync(path.join(this.root, file), 'utf8'), name) };
    });
  }

  /** The Markdown of a guide or a decision record; null for a name that is not one. */
  read(name: string): string | null {
    if (!NAME.test(name)) return null;
    try {
      return fs.readFileSync(path.join(this.root, `${name}.md`), 'utf8');
    } catch {
      return null;
    }
  }

  /** An image of docs/images/ (screenshots), by its path below it; null for anything else. */
  image(relative: string): { type: string; bytes: Buffer } | null {
    const type = IMAGE_TYPES[path.extname(relative).toLowerCase()];
    const images = path.join(this.root, 'images');
    const file = path.resolve(images, relative);
    if (!type || !file.startsWith(`${images}${path.sep}`)) return null;
    try {
      return { type, bytes: fs.readFileSync(file) };
    } catch {
      return null;
    }
  }
}
