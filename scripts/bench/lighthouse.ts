/** Lighthouse (mobile) on a page, in Debian's Chromium; the Chromium flags are the ones the first-visit JavaScript is read with too. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { log } from './log.ts'
import { bin, run } from './processes.ts'

/** The pages whose Lighthouse scores issue 30 sets a target for. */
export const LIGHTHOUSE_PAGES = ['/', '/courses', '/login', '/register']
export const CHROME_FLAGS =
	'--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run'

/** Lighthouse now and then fails to record its trace on a busy machine (NO_NAVSTART): try again. */
export async function lighthouse(url: string) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await lighthouseOnce(url)
		} catch (error) {
			if (attempt === 3) throw error
			log(`Lighthouse ${url} failed (${error instanceof Error ? error.message.split('\n')[0] : error}); retrying`)
		}
	}
}

async function lighthouseOnce(url: string) {
	const output = path.join(os.tmpdir(), `bench-lighthouse-${process.pid}.json`)
	await run(
		bin('lighthouse'),
		[
			url,
			'--quiet',
			'--output=json',
			`--output-path=${output}`,
			`--chrome-flags=${CHROME_FLAGS}`,
			'--only-categories=performance,accessibility,best-practices,seo',
		],
		{ CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
	)
	const report = JSON.parse(fs.readFileSync(output, 'utf8')) as {
		categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>
		audits: Record<string, { score: number | null; details?: { items?: Array<{ issueType?: string }> } }>
	}
	fs.rmSync(output, { force: true })
	const score = (key: string) => Math.round((report.categories[key]?.score ?? 0) * 100)
	// What cost points, so a score below 100 can be acted on from results.json.
	const failing = Object.values(report.categories)
		.flatMap((category) => category.auditRefs)
		.filter((ref) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 1)
		.map((ref) => {
			const issues = report.audits[ref.id]?.details?.items?.flatMap((item) => (item.issueType ? [item.issueType] : [])) ?? []
			return issues.length > 0 ? `${ref.id} (${issues.join(', ')})` : ref.id
		})
	return {
		page: new URL(url).pathname,
		performance: score('performance'),
		accessibility: score('accessibility'),
		bestPractices: score('best-practices'),
		seo: score('seo'),
		failing,
	}
}

export type LighthouseScores = Awaited<ReturnType<typeof lighthouse>>
