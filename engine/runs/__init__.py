"""Launching, watching, cancelling and reconciling runs; the results store; the progress protocol; host discovery."""
