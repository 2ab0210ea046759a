declare const binaries: { node22: string; node24: string; bun: string; deno: string };
export = binaries;
