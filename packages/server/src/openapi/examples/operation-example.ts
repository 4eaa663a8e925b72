/** An operation's examples: its JSON request body (when it takes one) and its success answer (when it has a body). */
export interface OperationExample {
  request?: unknown;
  response?: unknown;
}
