/**
 * The Docker image's `deps` stage for tests/e2e/container.spec.ts: `npm ci --omit=dev` over
 * package.json and package-lock.json in a folder of its own. It is most of that spec's time and
 * mostly disk writes, so `npm test` (scripts/test.ts) installs it in the background while the
 * unit tests run and names the folder in E2E_RUNTIME_DEPENDENCIES; the spec then moves its
 * node_modules into the image, as the Dockerfile's `COPY --from=deps` does, or installs it itself.
 */
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

export const RUNTIME_DEPENDENCIES_ENV = 'E2E_RUNTIME_DEPENDENCIES'

/** The command, run in the folder with the two manifests. */
export const INSTALL_COMMAND = {
	command: 'npm',
	args: ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
}

const MANIFESTS = ['package.json', 'package-lock.json']

/** Copies the manifests the install reads into `directory`. */
export function copyManifests(directory: string) {
	for (const file of MANIFESTS) fs.copyFileSync(path.join(root, file), path.join(directory, file))
}

/**
 * Moves the node_modules installed in the background into `app`, when there is one made from
 * these very manifests and not yet taken: answers whether it did.
 */
export function takeInstalledDependencies(app: string) {
	const directory = process.env[RUNTIME_DEPENDENCIES_ENV]
	if (!directory || !fs.existsSync(path.join(directory, 'node_modules'))) return false
	const manifests = (folder: string) => MANIFESTS.map((file) => fs.readFileSync(path.join(folder, file), 'utf8')).join('\n')
	if (manifests(directory) !== manifests(app)) return false
	fs.renameSync(path.join(directory, 'node_modules'), path.join(app, 'node_modules'))
	return true
}
