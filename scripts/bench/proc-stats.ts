/** CPU time and memory of a server's processes, read from Linux's /proc and from the heap probes. */
import fs from 'node:fs'
import path from 'node:path'
import { childPids } from '../lib/processes.ts'
import { HEAP_PROBE_DIR } from './processes.ts'

const CLOCK_TICKS = 100

/** The process and its children (a cluster's workers). */
export function processTree(pid: number) {
	return [pid, ...childPids(pid)]
}

/** CPU time (user + system) the server's processes have used, in ms: unlike latency, it does not depend on what else the machine runs. */
export function cpuMs(pid: number) {
	let total = 0
	for (const member of processTree(pid)) {
		const fields = fs.readFileSync(`/proc/${member}/stat`, 'utf8').split(') ')[1]!.split(' ')
		total += (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS)
	}
	return total
}

function rssKb(pid: number) {
	let total = 0
	for (const member of processTree(pid)) {
		const status = fs.readFileSync(`/proc/${member}/status`, 'utf8')
		total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
	}
	return total
}

function readProcLink(file: string) {
	try {
		return fs.readlinkSync(file)
	} catch {
		return null
	}
}

/** Live memory (heap and external, after a full collection) of the server's processes, read by scripts/bench/heap-probe.ts. */
export async function liveKb(pid: number) {
	// Only the Node.js processes carry the probe; a helper the server runs (a document converter) would die of the signal.
	const executable = (member: number) => readProcLink(`/proc/${member}/exe`)
	const members = processTree(pid).filter((member) => executable(member) === executable(pid))
	for (const member of members) fs.rmSync(path.join(HEAP_PROBE_DIR, `${member}.json`), { force: true })
	for (const member of members) process.kill(member, 'SIGUSR2')
	let total = 0
	for (const member of members) {
		const file = path.join(HEAP_PROBE_DIR, `${member}.json`)
		for (let attempt = 0; attempt < 100 && !fs.existsSync(file); attempt++) await new Promise((resolve) => setTimeout(resolve, 100))
		total += (JSON.parse(fs.readFileSync(file, 'utf8')) as { liveKb: number }).liveKb
	}
	return total
}

/** RSS once it stops moving (start-up memory is released, collections finish): the baseline for a per-connection figure. */
export async function settledRssKb(pid: number) {
	let previous = rssKb(pid)
	for (let attempt = 0; attempt < 30; attempt++) {
		await new Promise((resolve) => setTimeout(resolve, 500))
		const current = rssKb(pid)
		if (Math.abs(current - previous) < 256) return current
		previous = current
	}
	return previous
}
