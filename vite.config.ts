import os from 'node:os'
import cascadeLayers from '@csstools/postcss-cascade-layers'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import browserslistToEsbuild from 'browserslist-to-esbuild'
import { Features } from 'lightningcss'
import customProperties from 'postcss-custom-properties'
import { defineConfig } from 'vitest/config'

const isVitest = Boolean(process.env.VITEST)

export default defineConfig({
	plugins: isVitest ? [] : [tailwindcss(), reactRouter()],
	css: {
		// Browsers without cascade layers or custom properties (package.json `browserslist`, README
		// "Browsers") get the same rules: layers flattened by specificity, a plain value before each `var()`.
		postcss: { plugins: [cascadeLayers(), customProperties()] },
		// Lowered for every browser, not just the listed ones: NetSurf and Dillo know only physical
		// margins and paddings, `rgba()` and plain selectors.
		lightningcss: { include: Features.LogicalProperties | Features.HexAlphaColors | Features.IsSelector },
	},
	build: {
		target: 'es2022',
		// The minifier (Lightning CSS) lowers what the oldest supported browsers lack: media range syntax, colour functions.
		cssTarget: browserslistToEsbuild(),
	},
	environments: {
		// The server build is one bundle: a lazy client-side split (React.lazy) is not a split there.
		ssr: { build: { rolldownOptions: { checks: { ineffectiveDynamicImport: false } } } },
	},
	test: {
		include: ['app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'],
		globalSetup: ['tests/support/global-setup.ts'],
		setupFiles: ['tests/support/setup.ts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
		pool: 'forks',
		// Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, which
		// then sits half idle while its tests wait on PostgreSQL, LibreOffice and child processes.
		maxWorkers: Math.max(2, os.availableParallelism() - 1),
	},
})
