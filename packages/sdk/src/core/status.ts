/** Status-code types of the error classes: literal unions, so `error.status === 404` narrows to `NotFoundError`. */

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type ToNumber<S> = S extends `${infer N extends number}` ? N : never;

/** 500 to 599: the statuses of an `InternalServerError`. */
export type ServerErrorStatus = ToNumber<`5${Digit}${Digit}`>;

/** The statuses that have a class of their own below 500. */
export type KnownClientErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429;

/** Every other 3xx and 4xx status (408, 418, 422, a redirect that was not followed): an `UnexpectedStatusError`. */
export type UnexpectedStatus = Exclude<ToNumber<`${3 | 4}${Digit}${Digit}`>, KnownClientErrorStatus>;
