import { href } from 'react-router'
/** The admin's Student Communications: one URL per channel (before, one page with `?tab=`). */
export const COMMUNICATIONS_PATH = href('/dashboard/admin/messages')
export const BROADCAST_PATH = `${COMMUNICATIONS_PATH}/broadcast`
export const DIRECT_PATH = `${COMMUNICATIONS_PATH}/direct`
export const CONTACT_PATH = `${COMMUNICATIONS_PATH}/contact`

export const directThreadUrl = (partnerId: string) => `${DIRECT_PATH}?with=${partnerId}`

function positiveInt(value: string | null) {
	const number = Number(value)
	return Number.isSafeInteger(number) && number > 0 ? number : undefined
}

/** `?before=` of a paged list. */
export function beforeId(params: URLSearchParams) {
	return positiveInt(params.get('before'))
}

/** `?confirm=delete-{id}`: the message whose delete confirmation is open. */
export function confirmedId(params: URLSearchParams) {
	return positiveInt(params.get('confirm')?.replace(/^delete-/, '') ?? null)
}
