// The yardstick: a plain node:http server answering a fixed JSON body of about the size of a
// city response. Every service number is reported as a ratio to this, measured in the same run.
// With BASELINE_BODY_FILE it answers that file's bytes instead (BASELINE_ENCODING names their
// content encoding): the yardstick for large responses such as the full city list.
const { createServer } = require('node:http');
const { readFileSync } = require('node:fs');

const fixedBody = JSON.stringify({
  status: true,
  code: 200,
  version: 'baseline',
  data: {
    id: 12,
    name: 'Chuo',
    nameKana: 'ちゅうおう',
    summary: 'A quiet harbour town with a long main street and a market every weekend.',
    origin: 'Named after the central district of the old map.',
    corners: [
      { id: 1, x: '-100', z: '200' },
      { id: 2, x: '-100', z: '300' },
      { id: 3, x: '0', z: '300' },
      { id: 4, x: '0', z: '200' },
    ],
    count: 10201,
    reason: null,
    remarks: null,
    owner: { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', mcid: 'Notch', chatid: null },
    createdAt: '2026-11-22T03:04:05.000Z',
    updatedAt: '2026-11-22T03:04:05.000Z',
  },
});

const body = process.env.BASELINE_BODY_FILE ? readFileSync(process.env.BASELINE_BODY_FILE) : Buffer.from(fixedBody);
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
