import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vitest/config'

const isVitest = Boolean(process.env.VITEST)

export default defineConfig({
	plugins: isVitest ? [] : [tailwindcss(), reactRouter()],
	build: { target: 'es2022' },
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
	},
})
