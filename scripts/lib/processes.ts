import fs from 'node:fs'

/** Reads a /proc entry; the fallback when its process has gone meanwhile. */
function readProc<T>(read: () => T, fallback: T) {
	try {
		return read()
	} catch {
		return fallback
	}
}

/**
 * The live child processes of pid (a cluster primary's workers), read from
 * Linux's /proc; none once pid itself has exited. A child that has exited but
 * not yet been reaped (state Z) is left out.
 */
export function childPids(pid: number): number[] {
	return readProc(() => fs.readdirSync(`/proc/${pid}/task`), [])
		.flatMap((task) =>
			readProc(() => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8'), '')
				.trim()
				.split(/\s+/),
		)
		.filter(Boolean)
		.map(Number)
		.filter((child) => {
			const state = readProc(() => fs.readFileSync(`/proc/${child}/stat`, 'utf8'), '')
				.split(') ')[1]
				?.split(' ')[0]
			return state !== undefined && state !== 'Z'
		})
}

/** Ends a command on an error with its message alone: the operator needs the sentence, not the stack. */
export function exitWithError(error: unknown): never {
	console.error(error instanceof Error ? error.message : String(error))
	process.exit(1)
}
