/**
 * `node scripts/bench/profile-summary.ts FILE.cpuprofile [--top=30]`: the text summary of a V8
 * CPU profile (from `npm run bench -- --cpu-prof=DIR`): self time by function and by package,
 * as shares of the busy (non-idle) time, and the total time of a few of the app's frames.
 */
import fs from 'node:fs'

type ProfileNode = {
	id: number
	callFrame: { functionName: string; url: string; lineNumber: number }
	children?: number[]
}
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const [file] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
if (!file) throw new Error('usage: node scripts/bench/profile-summary.ts FILE.cpuprofile [--top=30]')
const top = Number(process.argv.find((arg) => arg.startsWith('--top='))?.split('=')[1] ?? 30)
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile

const selfMs = new Map<number, number>()
for (const [index, nodeId] of profile.samples.entries()) {
	selfMs.set(nodeId, (selfMs.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000)
}
const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)

const IDLE = new Set(['(idle)', '(program)'])
const shortUrl = (url: string) =>
	url.replace(/^file:\/\/.*?node_modules\//, '').replace(/^file:\/\/.*?\/(build-bench[^/]*|app|scripts)\//, '$1/')
const packageOf = (url: string) => {
	if (!url) return '(native / V8)'
	if (url.startsWith('node:')) return 'node: (built-in modules)'
	const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
	if (match) return match[1]!
	if (url.includes('build-bench')) return 'the app (server build)'
	return shortUrl(url)
}

let busy = 0
const byFunction = new Map<string, number>()
const byPackage = new Map<string, number>()
for (const [id, ms] of selfMs) {
	const frame = nodes.get(id)!.callFrame
	const name = frame.functionName || '(anonymous)'
	if (IDLE.has(name)) continue
	busy += ms
	const key = `${name}  ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`
	byFunction.set(key, (byFunction.get(key) ?? 0) + ms)
	const pkg = name === '(garbage collector)' ? '(garbage collector)' : packageOf(frame.url)
	byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms)
}

/** Total (self + callees) time of every frame with the given name, counted once per sample. */
function totalOf(functionName: string) {
	let total = 0
	for (const [id, ms] of selfMs) {
		for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
			if (nodes.get(current)!.callFrame.functionName === functionName) {
				total += ms
				break
			}
		}
	}
	return total
}

const share = (ms: number) => `${((ms / busy) * 100).toFixed(1).padStart(5)} %`
const print = (title: string, entries: Array<[string, number]>) => {
	console.log(`\n${title}`)
	for (const [name, ms] of entries) console.log(`${share(ms)}  ${ms.toFixed(0).padStart(7)} ms  ${name}`)
}
console.log(`${file}: ${busy.toFixed(0)} ms busy`)
print(`Top ${top} functions by self time`, [...byFunction].toSorted((a, b) => b[1] - a[1]).slice(0, top))
print('Self time by package', [...byPackage].toSorted((a, b) => b[1] - a[1]).slice(0, 20))
const frames = process.argv
	.find((arg) => arg.startsWith('--total='))
	?.split('=')[1]
	?.split(',') ?? ['renderToPipeableStream', 'handleDocumentRequest', 'callDataStrategyImpl', 'getSessionUser', 'compression']
print(
	'Total time (self + callees) of chosen frames',
	frames.map((name) => [name, totalOf(name)]),
)
