# SPDX-License-Identifier: GPL-2.0-only
"""The ktls-hs VM test runner: kernels, builds, guests, reports."""
