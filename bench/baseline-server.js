// The raw yardstick: a plain node:http server answering a fixed JSON body of about the size of a
// city response (bench/fixed-body.js), in its own process. With BASELINE_BODY_FILE it answers
// that file's bytes instead (BASELINE_ENCODING names their content encoding): the yardstick for
// large responses such as the full city list.
const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');
const fixedBody = require('./fixed-body');

const body = process.env.BASELINE_BODY_FILE ? readFileSync(process.env.BASELINE_BODY_FILE) : Buffer.from(JSON.stringify(fixedBody));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
if (process.env.BASELINE_ENCODING) {
  headers['content-encoding'] = process.env.BASELINE_ENCODING;
}

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
