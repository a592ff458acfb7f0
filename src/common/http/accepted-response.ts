/**
 * A `202 Accepted` answer: work that goes on after the response (an import run), its state now as the body
 * and where to follow it in `Location`. The response-body interceptor sends it.
 */
export class AcceptedResponse {
  constructor(
    readonly body: object,
    /** Absolute URL of the resource that tells how the work goes. */
    readonly location: string,
  ) {}
}
