import { data } from 'react-router'

/** PLACEHOLDER: replaced by the issue that builds this route. */
export async function loader() {
	throw data('Not built yet', { status: 501 })
}
