/** A TCP port that is free on 127.0.0.1 now (scripts/free-port.js, built on get-port). */
export declare function freePort(): Promise<number>;
