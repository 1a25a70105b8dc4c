import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { Metadata, type ServiceError, status as Status } from '@grpc/grpc-js';

/** grpc-js's default: a larger response is refused rather than buffered. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const FRAME_HEADER_BYTES = 5;
const {
  NGHTTP2_CANCEL,
  NGHTTP2_REFUSED_STREAM,
  NGHTTP2_ENHANCE_YOUR_CALM,
  NGHTTP2_INADEQUATE_SECURITY,
  NGHTTP2_INTERNAL_ERROR,
} = http2.constants;
/** Sessions whose connection was established: a call cut on one was cancelled, not unanswered. */
const connectedSessions = new WeakSet<ClientHttp2Session>();

/**
 * Unary gRPC calls straight over one node:http2 session, for the platform's insecure in-cluster
 * `host:port` targets. grpc-js's channel stack (interceptors, resolver, retry buffer, load-balancing
 * and subchannel call layers, one EventEmitter and one stack-capturing Error per call) cost the
 * gateway about 140 µs of CPU per call on the benchmark machine; this path does the same wire work
 * (HEADERS with the metadata and grpc-timeout, one length-prefixed DATA frame, status from the
 * trailers) for about 60 (bench/README.md). What a caller sees is unchanged: the status codes and
 * messages grpc-js gives for the same events (deadline, refused connection, reset stream, HTTP
 * error) and the trailers as Metadata, so serviceErrorToAppError reads the details as before.
 *
 * The session is opened on first use and replaced once it closes, errs or receives GOAWAY (a
 * server stopping gracefully finishes the calls it has and takes new ones on a new connection).
 * It holds the event loop open only while calls are in flight.
 */
export class UnaryTransport {
  private session: ClientHttp2Session | undefined;
  private inFlight = 0;
  private closed = false;

  constructor(private readonly authority: string) {}

  /** Sends one request message; resolves with the response message's bytes. */
  call(path: string, message: Uint8Array, headers: Record<string, string>, deadlineMs: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(serviceError(Status.UNAVAILABLE, 'Channel has been shut down'));
    const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + message.length);
    frame[0] = 0; // not compressed
    frame.writeUInt32BE(message.length, 1);
    frame.set(message, FRAME_HEADER_BYTES);
    headers[':method'] = 'POST';
    headers[':path'] = path;
    headers['content-type'] = 'application/grpc';
    headers.te = 'trailers';
    return new Promise((resolve, reject) => {
      const deadline = performance.now() + deadlineMs;
      let retried = false;
      const start = (): void => {
        // The server's deadline: its handler can tell when the caller stopped waiting.
        headers['grpc-timeout'] = `${Math.max(1, Math.ceil(deadline - performance.now()))}m`;
        const stream = this.openStream(headers);
        if (!stream) {
          reject(serviceError(Status.UNAVAILABLE, 'No connection established'));
          return;
        }
        this.started();
        new UnaryCall(stream, deadline - performance.now(), (error, response, unprocessed) => {
          this.finished();
          // The server refused the stream before reading it (REFUSED_STREAM, e.g. a GOAWAY that
          // crossed the request): like grpc-js's transparent retry, send it once more on a new
          // connection while the deadline allows.
          if (unprocessed && !retried && !this.closed && performance.now() < deadline) {
            retried = true;
            start();
          } else if (error) reject(error);
          else resolve(response!);
        }).send(frame);
      };
      start();
    });
  }

  /** A stream on the current session, or on a new one when the current one stopped taking them. */
  private openStream(headers: Record<string, string>): ClientHttp2Stream | undefined {
    const session = this.currentSession();
    try {
      return session.request(headers);
    } catch {
      // Out of stream ids, or closing since a GOAWAY we have not seen yet: a fresh connection.
      this.drop(session);
      try {
        return this.currentSession().request(headers);
      } catch {
        return undefined;
      }
    }
  }

  /** Lets calls in flight finish; later calls fail with UNAVAILABLE. */
  close(): void {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    session?.close();
  }

  private currentSession(): ClientHttp2Session {
    const existing = this.session;
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = http2.connect(`http://${this.authority}`);
    // A connection failure also reaches every stream on it, where the call reports it.
    session.once('connect', () => connectedSessions.add(session));
    session.on('error', () => this.drop(session));
    session.once('goaway', () => this.drop(session));
    session.once('close', () => this.drop(session));
    if (this.inFlight === 0) session.unref();
    this.session = session;
    return session;
  }

  private drop(session: ClientHttp2Session): void {
    if (this.session === session) this.session = undefined;
  }

  private started(): void {
    if (this.inFlight++ === 0) this.session?.ref();
  }

  private finished(): void {
    if (--this.inFlight === 0) this.session?.unref();
  }
}

/** `unprocessed`: the server refused the stream without reading it; sending it again is safe. */
type Done = (error: ServiceError | null, response?: Buffer, unprocessed?: boolean) => void;

/** One call on one stream: collects the response message and settles once, on the status. */
class UnaryCall {
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private httpStatus: number | undefined;
  private streamError: NodeJS.ErrnoException | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = performance.now();
  // Kept here: a destroyed stream no longer names its session.
  private readonly session: ClientHttp2Session;
  private done: Done | undefined;

  constructor(
    private readonly stream: ClientHttp2Stream,
    deadlineMs: number,
    done: Done,
  ) {
    this.done = done;
    this.session = stream.session as ClientHttp2Session;
    this.timer = setTimeout(() => this.expire(), Math.max(0, deadlineMs));
    stream.on('response', (headers) => this.onResponse(headers));
    stream.on('data', (chunk: Buffer) => this.onData(chunk));
    stream.on('trailers', (trailers) => this.settleWithStatus(trailers));
    stream.on('error', (error: NodeJS.ErrnoException) => {
      this.streamError = error;
    });
    stream.on('close', () => this.onClose());
  }

  send(frame: Buffer): void {
    this.stream.end(frame);
  }

  private onResponse(headers: IncomingHttpHeaders): void {
    this.httpStatus = Number(headers[':status']);
    // Trailers-only answer (an error before any message): the status is in these headers.
    if (headers['grpc-status'] !== undefined) this.settleWithStatus(headers);
  }

  private onData(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > MAX_RESPONSE_BYTES + FRAME_HEADER_BYTES) {
      this.fail(
        Status.RESOURCE_EXHAUSTED,
        `Received message larger than max (${this.received} vs. ${MAX_RESPONSE_BYTES})`,
        NGHTTP2_CANCEL,
      );
      return;
    }
    this.chunks.push(chunk);
  }

  private settleWithStatus(headers: IncomingHttpHeaders): void {
    if (!this.done) return;
    const code = Number(headers['grpc-status']);
    if (code !== Status.OK) {
      const message = headers['grpc-message'];
      this.settle(
        serviceError(
          code,
          typeof message === 'string' ? decodeMessage(message) : '',
          Metadata.fromHttp2Headers(headers),
        ),
      );
      return;
    }
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const { error, message } = readSingleMessage(body);
    if (error) this.settle(error);
    else this.settle(null, message);
  }

  private onClose(): void {
    if (!this.done) return;
    const { rstCode } = this.stream;
    const cause = this.streamError?.cause instanceof Error ? this.streamError.cause : this.streamError;
    if (!connectedSessions.has(this.session)) {
      // Never connected: refused connection, unknown host, unreachable network.
      this.settle(serviceError(Status.UNAVAILABLE, `No connection established. Last error: ${cause?.message}`));
    } else if (rstCode === NGHTTP2_REFUSED_STREAM) {
      this.settle(
        serviceError(Status.UNAVAILABLE, 'Stream refused by server'),
        undefined,
        this.httpStatus === undefined,
      );
    } else if (rstCode === NGHTTP2_CANCEL) {
      // Also a server cutting its calls at the end of a graceful stop (GOAWAY with CANCEL).
      this.settle(serviceError(Status.CANCELLED, 'Call cancelled'));
    } else if (rstCode === NGHTTP2_ENHANCE_YOUR_CALM) {
      this.settle(serviceError(Status.RESOURCE_EXHAUSTED, 'Bandwidth exhausted or memory limit exceeded'));
    } else if (rstCode === NGHTTP2_INADEQUATE_SECURITY) {
      this.settle(serviceError(Status.PERMISSION_DENIED, 'Protocol not secure enough'));
    } else if (rstCode === NGHTTP2_INTERNAL_ERROR && isConnectionLoss(cause)) {
      this.settle(serviceError(Status.UNAVAILABLE, `Connection dropped: ${cause?.message}`));
    } else if (this.httpStatus !== undefined && this.httpStatus !== 200) {
      this.settle(serviceError(httpStatusToGrpc(this.httpStatus), `Received HTTP status code ${this.httpStatus}`));
    } else {
      this.settle(
        serviceError(Status.INTERNAL, `Received RST_STREAM with code ${rstCode} (Call ended without gRPC status)`),
      );
    }
  }

  private expire(): void {
    const seconds = ((performance.now() - this.startedAt) / 1000).toFixed(3);
    this.fail(Status.DEADLINE_EXCEEDED, `Deadline exceeded after ${seconds}s`, NGHTTP2_CANCEL);
  }

  private fail(code: Status, details: string, rstCode: number): void {
    this.settle(serviceError(code, details));
    if (!this.stream.closed) this.stream.close(rstCode);
  }

  private settle(error: ServiceError | null, response?: Buffer, unprocessed = false): void {
    const done = this.done;
    if (!done) return;
    this.done = undefined;
    clearTimeout(this.timer);
    done(error, response, unprocessed);
  }
}

/** The one length-prefixed message of a unary response. */
function readSingleMessage(body: Buffer): { error?: ServiceError; message?: Buffer } {
  if (body.length < FRAME_HEADER_BYTES) return { error: serviceError(Status.UNIMPLEMENTED, 'No message received') };
  if (body[0] !== 0) {
    // We never offer grpc-accept-encoding, so a compressed message is a broken server.
    return { error: serviceError(Status.INTERNAL, 'Received a compressed message without an agreed encoding') };
  }
  const length = body.readUInt32BE(1);
  const end = FRAME_HEADER_BYTES + length;
  if (body.length < end) return { error: serviceError(Status.INTERNAL, 'Received a truncated message') };
  if (body.length > end) return { error: serviceError(Status.UNIMPLEMENTED, 'Too many responses received') };
  return { message: body.subarray(FRAME_HEADER_BYTES, end) };
}

function isConnectionLoss(error: NodeJS.ErrnoException | undefined): boolean {
  return error?.code === 'ECONNRESET' || error?.code === 'ETIMEDOUT' || error?.code === 'EPIPE';
}

/** The gRPC code for an HTTP answer without a gRPC status (a proxy or a non-gRPC server). */
function httpStatusToGrpc(httpStatus: number): Status {
  switch (httpStatus) {
    case 400:
      return Status.INTERNAL;
    case 401:
      return Status.UNAUTHENTICATED;
    case 403:
      return Status.PERMISSION_DENIED;
    case 404:
      return Status.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return Status.UNAVAILABLE;
    default:
      return Status.UNKNOWN;
  }
}

/** grpc-message is percent-encoded UTF-8; a server that did not encode it is read as sent. */
function decodeMessage(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A failed call as grpc-js reports it: code, details and the trailers as Metadata. */
export function serviceError(code: Status, details: string, metadata = new Metadata()): ServiceError {
  return Object.assign(new Error(`${code} ${Status[code]}: ${details}`), { code, details, metadata });
}
