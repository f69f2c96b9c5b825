import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { CHROME_FLAGS } from './lighthouse.ts'
import { BUILD_DIR } from './options.ts'

/**
 * The gzip size of every script a first visit to the page makes the browser load, read off
 * a real Chromium (module preloads, the entry, and whatever loads lazily before the network
 * is idle); the HTML also names scripts the browser never fetches, such as the full route
 * manifest.
 */
export async function firstVisitJs(origin: string, pagePath: string, cookie?: string) {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: CHROME_FLAGS.split(' ').filter((flag) => !flag.startsWith('--headless')),
	})
	try {
		const page = await browser.newPage({ extraHTTPHeaders: cookie ? { Cookie: cookie } : {} })
		const urls = new Set<string>()
		page.on('response', (response) => {
			const { pathname } = new URL(response.url())
			if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) urls.add(pathname)
		})
		const response = await page.goto(`${origin}${pagePath}`, { waitUntil: 'networkidle' })
		let gzipBytes = 0
		for (const url of urls) gzipBytes += gzipSync(fs.readFileSync(path.join(BUILD_DIR, 'client', url))).length
		const pdfjs = [...urls].some((url) => /pdf/i.test(url))
		// Inline scripts come with the HTML: a scriptless page's live-parts script, a hydrated page's route data.
		const inline = await page.$$eval('script:not([src])', (scripts) => scripts.map((script) => script.textContent ?? ''))
		const inlineBytes = inline.reduce((sum, text) => sum + (text ? gzipSync(text).length : 0), 0)
		const kb = (bytes: number) => Math.round(bytes / 102.4) / 10
		return {
			page: pagePath,
			status: response?.status() ?? 0,
			files: urls.size,
			gzipKb: kb(gzipBytes),
			inlineGzipKb: kb(inlineBytes),
			pdfjs,
		}
	} finally {
		await browser.close()
	}
}

export type FirstVisitJs = Awaited<ReturnType<typeof firstVisitJs>>
