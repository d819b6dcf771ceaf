/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat layer, skb part: helpers that need <linux/skbuff.h> alone.
 * Apart from <ktls_hs/compat_net.h> (which includes it) because the
 * offload files that export tls.ko's symbols must keep the header set of
 * the in-tree files: modversions CRCs depend on every type a file
 * defines (Documentation/offload.rst), and TCP's headers change them.
 */
#ifndef _KTLS_HS_COMPAT_SKB_H
#define _KTLS_HS_COMPAT_SKB_H

#include <linux/skbuff.h>
#include <linux/version.h>

/*
 * Whether the device decrypted an skb's bytes: skb_is_decrypted() from
 * 6.10, when the bit moved under CONFIG_SKB_DECRYPTED; before, the bit
 * itself, under CONFIG_TLS_DEVICE.
 */
static inline bool ktls_skb_decrypted(const struct sk_buff *skb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	return skb_is_decrypted(skb);
#elif IS_ENABLED(CONFIG_TLS_DEVICE)
	return skb->decrypted;
#else
	return false;
#endif
}

/*
 * Set or clear that mark.  The bit exists where ktls_skb_decrypted() can
 * see it: under CONFIG_SKB_DECRYPTED from 6.10, CONFIG_TLS_DEVICE before.
 */
static inline void ktls_skb_set_decrypted(struct sk_buff *skb, bool on)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#ifdef CONFIG_SKB_DECRYPTED
	skb->decrypted = on;
#endif
#elif IS_ENABLED(CONFIG_TLS_DEVICE)
	skb->decrypted = on;
#endif
}

/* An skb fragment of @size bytes at @off of @page: one call from 6.5. */
static inline void ktls_skb_frag_fill(skb_frag_t *frag, struct page *page,
				      unsigned int off, unsigned int size)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	skb_frag_fill_page_desc(frag, page, off, size);
#else
	__skb_frag_set_page(frag, page);
	skb_frag_off_set(frag, off);
	skb_frag_size_set(frag, size);
#endif
}

#endif /* _KTLS_HS_COMPAT_SKB_H */
