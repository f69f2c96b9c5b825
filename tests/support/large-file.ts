import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sampleClassRecording } from '#db/seed/sample-files.ts'

/**
 * The path of a video one megabyte over the e2e server's upload limit (50 MB): a real MP4 (so
 * its content matches its name) padded out sparsely, so it costs no disk. What an admin picks
 * when a recording is too big.
 */
export async function fileOverUploadLimit(limitMb = 50) {
	const file = path.join(os.tmpdir(), `over-limit-${process.pid}`, 'class-recording.mp4')
	if (!fs.existsSync(file)) {
		fs.mkdirSync(path.dirname(file), { recursive: true })
		fs.writeFileSync(file, Buffer.from(await sampleClassRecording()))
		fs.truncateSync(file, (limitMb + 1) * 1024 * 1024)
	}
	return file
}
