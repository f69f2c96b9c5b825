import { href } from 'react-router'
import { parseRowId } from '#app/utils/row-id.ts'

/** The admin's Student Communications: one URL per channel (before, one page with `?tab=`). */
const COMMUNICATIONS_PATH = href('/dashboard/admin/messages')
export const BROADCAST_PATH = `${COMMUNICATIONS_PATH}/broadcast`
export const DIRECT_PATH = `${COMMUNICATIONS_PATH}/direct`
export const CONTACT_PATH = `${COMMUNICATIONS_PATH}/contact`

export const directThreadUrl = (partnerId: string) => `${DIRECT_PATH}?with=${partnerId}`

/** `?before=` of a paged list. */
export function beforeId(params: URLSearchParams) {
	return parseRowId(params.get('before')) ?? undefined
}

/** `?confirm=delete-{id}`: the message whose delete confirmation is open. */
export function confirmedId(params: URLSearchParams) {
	return parseRowId(params.get('confirm')?.replace(/^delete-/, '')) ?? undefined
}
