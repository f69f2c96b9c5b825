import type { $ZodConfig } from 'zod/v4/core'

// Building an object schema makes Zod probe `new Function` to decide whether to compile its
// parsers. The CSP forbids eval, so in the browser the probe is refused and reported as a CSP
// violation on every page that defines a form schema. Interpreted parsing is fast enough for forms.
// Zod reads its configuration from this global and supports setting it before Zod loads, which
// keeps Zod's code out of the pages that have no form (z.config would bundle it into root).
const zodGlobal = globalThis as typeof globalThis & { __zod_globalConfig?: $ZodConfig }
zodGlobal.__zod_globalConfig ??= {}
zodGlobal.__zod_globalConfig.jitless = true
