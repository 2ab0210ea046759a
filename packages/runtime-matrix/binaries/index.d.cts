declare const binaries: { bun: string; deno: string };
export = binaries;
