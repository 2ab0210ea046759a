// A local OTLP/HTTP collector for the tracing scenarios: takes every export (protobuf or JSON) and answers 200 at
// once, so the rows measure what tracing costs the server, not a collector.
import { createServer } from 'node:http';

process.once('message', () => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  server.listen(0, '127.0.0.1', () => {
    process.once('SIGTERM', () => server.close(() => process.exit(0)));
    process.send({ url: `http://127.0.0.1:${server.address().port}` });
  });
});
