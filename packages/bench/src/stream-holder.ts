/**
 * A child of the stream scenario: opens `count` change streams to a Billow process and holds
 * them, reading what they send, until it is killed. Apart from the bench's own process, so that
 * reading 10,000 sockets does not slow the client whose latency is measured.
 * Arguments: <baseUrl> <serverKey> <count>; tells its parent `{ open }` once every stream has answered.
 */
import http from 'node:http';
import { eachLimited } from './edge-seed.js';

const OPEN_CONCURRENCY = 200;
const [baseUrl, key, countText] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
let open = 0;

const one = () =>
  new Promise<void>((resolve, reject) => {
    const request = http.get(`${baseUrl}/api/v1/entitlements/changes/`, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`a stream was answered ${response.statusCode}`));
      response.once('data', () => {
        open++;
        resolve();
      });
      response.on('data', () => undefined);
    });
    request.on('error', reject);
  });

eachLimited(Array.from({ length: Number(countText) }), OPEN_CONCURRENCY, one).then(
  () => process.send?.({ open }),
  (error: unknown) => {
    process.send?.({ error: String(error) });
    process.exit(1);
  },
);
