"""Straw — The Game that Broke the Camel's Back (docs/rules/straw.md).
"""
