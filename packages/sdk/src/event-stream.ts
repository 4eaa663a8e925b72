import { EventSourceParserStream } from 'eventsource-parser/stream';

/** An open stream of server-sent events, each `data:` parsed as JSON; iterate it with `for await`, end it with close(). */
export interface EventStream<Event> extends AsyncIterable<Event> {
  close(): void;
  /** The id of the last event read (null before the first): sent as `Last-Event-ID`, a new stream resumes after it. */
  readonly lastEventId: string | null;
  /** Called for each comment Billow sends to keep the connection open (every 15 seconds): the stream is alive. */
  onHeartbeat: (() => void) | null;
}

/** An event carries one customer's entitlements: a few kilobytes at most; anything past this is not Billow. */
const MAX_EVENT_CHARS = 1024 * 1024;

export function eventStreamOf<Event>(response: Response, stop: AbortController): EventStream<Event> {
  const body = response.body;
  if (!body) throw new TypeError('The stream answered without a body');
  const events = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream({ maxBufferSize: MAX_EVENT_CHARS, onError: 'terminate', onComment: () => stream.onHeartbeat?.() }));
  let lastEventId: string | null = null;
  const stream: EventStream<Event> = {
    onHeartbeat: null,
    close: () => stop.abort(),
    get lastEventId() {
      return lastEventId;
    },
    async *[Symbol.asyncIterator]() {
      try {
        for await (const message of events) {
          if (message.id !== undefined) lastEventId = message.id;
          yield JSON.parse(message.data) as Event;
        }
      } catch (error) {
        // close() ends the loop quietly; anything else (a broken connection) reaches the reader.
        if (!stop.signal.aborted) throw error;
      }
    },
  };
  return stream;
}
