/**
 * The command line of `npm run bench` and the settings it fixes:
 *
 * Flags: --skip-build --skip-embedded --skip-postgres --skip-public --skip-sse --skip-lighthouse --skip-js
 *        --skip-capacity --duration=10 --connections=50 --sse-clients=10000 --probe=4
 *        --quick (for iterating: --skip-sse --skip-lighthouse --skip-js, 3 s runs, 2 s probes)
 *        --cpu-prof=DIR (one server process, profiled while the signed-in pages load: a .cpuprofile in DIR)
 *        --pages=PATH,PATH (only these of the signed-in pages, by path without the query: /dashboard/admin/overview is both ranges)
 */
import path from 'node:path'

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(`--${name}`)
const option = (name: string, fallback: number) => {
	const value = args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1]
	return value ? Number(value) : fallback
}
export const QUICK = flag('quick')
export const SKIP_BUILD = flag('skip-build')
export const CPU_PROFILE_DIR = args.find((arg) => arg.startsWith('--cpu-prof='))?.split('=')[1]
/** --pages=/dashboard,/dashboard/messages: only the signed-in pages of these paths (a profile of one page, say). */
export const ONLY_PAGES = args
	.find((arg) => arg.startsWith('--pages='))
	?.split('=')[1]
	?.split(',')
/** A profile is of the signed-in pages only: the rest would blur it. */
export const skip = (part: string) =>
	flag(`skip-${part}`) ||
	(QUICK && ['sse', 'lighthouse', 'js'].includes(part)) ||
	(CPU_PROFILE_DIR !== undefined && ['sse', 'lighthouse', 'js', 'capacity', 'public'].includes(part))
export const DURATION = option('duration', QUICK ? 3 : 10)
export const CONNECTIONS = option('connections', 50)
export const SSE_CLIENTS = option('sse-clients', 10_000)
export const PROBE_SECONDS = option('probe', QUICK ? 2 : 4)
export const WARM_UP = QUICK ? 1 : 2

/** The latency goal of the capacity figures. */
export const P99_GOAL_MS = 100
export const BUILD_DIR = path.resolve('build-bench')
export const FLOOR_APP_DIR = path.resolve('bench/floor-app')
export const FLOOR_BUILD_DIR = path.resolve('build-bench-floor')
export const FLOOR_PAGE = 'minimal React Router app (floor)'
/** The signed-in page the report sets the others' CPU per request beside (issue 43: the overview's). */
export const DASHBOARD_PAGE = '/dashboard (student)'
