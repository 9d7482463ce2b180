// autocannon ships no types; only what the benchmarks use.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    '2xx': number;
    errors: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    /** Called before each request; may change its headers and body. */
    requests?: Array<{
      method?: string;
      path?: string;
      setupRequest?: (request: { headers: Record<string, string>; body?: string; method?: string; path?: string }) => unknown;
    }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
