declare const __SDK_VERSION__: string;

/** The SDK's version, taken from package.json at build time. */
export const VERSION: string = __SDK_VERSION__;
