import { didDocument } from '#app/models/enrollment/certificates.server.ts'

/**
 * The site's DID document, where did:web says to find it: the public key that verifies the
 * certificates' credentials. The private key stays on the server.
 */
export function loader() {
	return new Response(JSON.stringify(didDocument(), null, 2), {
		headers: { 'Content-Type': 'application/did+json', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
	})
}
