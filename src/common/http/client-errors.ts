import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const STATUS_BY_CODE: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'rest_headers_too_large', 'The request line or headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'rest_request_timeout', 'The request took too long to arrive.'],
};

/**
 * Requests that Node's HTTP parser refuses before the application sees them (headers or URL too large,
 * malformed request lines, a body that did not arrive in time) still get the one error body, instead of
 * Node's empty answer.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, message] = STATUS_BY_CODE[error.code ?? ''] ?? [
      400,
      'rest_bad_request',
      'The request could not be read.',
    ];
    const body = JSON.stringify({ code, message, data: { status, request_id: randomUUID() } });
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
