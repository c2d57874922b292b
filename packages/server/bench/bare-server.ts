/**
 * The baseline of the HTTP benchmark: a bare Node HTTP server answering every request with a fixed body of
 * the given size (`BODY_BYTES`), after reading the request body. Prints `LISTENING <url>`.
 */
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ results: [{ padding: 'x'.repeat(Math.max(0, Number(process.env.BODY_BYTES ?? 1000) - 30)) }] }));
const server = createServer((request, response) => {
  request.on('data', () => {});
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
