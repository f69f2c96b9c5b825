/**
 * Loaded into the benchmarked server processes (NODE_OPTIONS='--expose-gc --import …'):
 * on SIGUSR2 a process collects its garbage fully and writes what it still holds to
 * $HEAP_PROBE_DIR/<pid>.json, so the bench can tell live memory from heap V8 merely keeps.
 */
import fs from 'node:fs'
import path from 'node:path'

const directory = process.env.HEAP_PROBE_DIR
const collect = (globalThis as { gc?: () => void }).gc
if (directory && collect) {
	process.on('SIGUSR2', () => {
		collect()
		collect()
		const { heapUsed, external } = process.memoryUsage()
		const file = path.join(directory, `${process.pid}.json`)
		fs.writeFileSync(`${file}.tmp`, JSON.stringify({ liveKb: (heapUsed + external) / 1024 }))
		fs.renameSync(`${file}.tmp`, file)
	})
}
