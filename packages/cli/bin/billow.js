#!/usr/bin/env node
// The installed `billow` command. It lives outside dist/ so that npm can link it on
// the first install, before the `prepare` script has compiled dist/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('billow: the command is not built yet; run `npm run build` in the Billow checkout first.\n');
  process.exit(1);
}
await import(entry.href);
