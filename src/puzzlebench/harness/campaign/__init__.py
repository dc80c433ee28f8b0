"""campaign"""
