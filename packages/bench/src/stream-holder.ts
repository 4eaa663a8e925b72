/**
 * A child of the stream scenario: opens change streams to a Billow process and holds
 * them, reading what they send, until it is killed. Apart from the bench's own process, so that
 * reading 10,000 sockets does not slow the client whose latency is measured.
 * Told `{ baseUrl, key, paths }` by its parent (IPC); tells it `{ open }` once every stream has answered.
 */
import http from 'node:http';
import { eachLimited } from './edge-seed.js';

const OPEN_CONCURRENCY = 200;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
let open = 0;

const one = (baseUrl: string, key: string, path: string) =>
  new Promise<void>((resolve, reject) => {
    const request = http.get(`${baseUrl}${path}`, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`a stream was answered ${response.statusCode}`));
      response.once('data', () => {
        open++;
        resolve();
      });
      response.on('data', () => undefined);
    });
    request.on('error', reject);
  });

process.once('message', ({ baseUrl, key, paths }: { baseUrl: string; key: string; paths: string[] }) => {
  eachLimited(paths, OPEN_CONCURRENCY, (path) => one(baseUrl, key, path)).then(
    () => process.send?.({ open }),
    (error: unknown) => {
      process.send?.({ error: String(error) });
      process.exit(1);
    },
  );
});
