"""A small Streamlit app for docs/realapps-findings-4.md: an order form (text input, selectbox, slider, a button
that appends a row to a table), a sidebar, tabs and an expander.

Served by setup_round4.sh: `venv/bin/streamlit run streamlit_orders.py --server.port PORT --server.address 127.0.0.1
--server.headless true`.
"""

import pandas as pd
import streamlit as st

st.set_page_config(page_title="Orders", layout="centered")

if "rows" not in st.session_state:
    st.session_state.rows = [{"customer": "Ada", "product": "Tea", "quantity": 2}]

with st.sidebar:
    st.header("Settings")
    currency = st.radio("Currency", ["EUR", "USD", "GBP"], key="currency")
    st.checkbox("Show totals", value=True, key="totals")

st.title("Orders")
order_tab, history_tab = st.tabs(["New order", "History"])

with order_tab:
    name = st.text_input("Customer name", key="customer")
    product = st.selectbox("Product", ["Tea", "Coffee", "Cocoa", "Juice"], key="product")
    quantity = st.slider("Quantity", min_value=1, max_value=10, value=1, key="quantity")
    if st.button("Add order"):
        if name.strip():
            st.session_state.rows.append({"customer": name, "product": product, "quantity": quantity})
            st.success(f"Added {quantity} x {product} for {name}")
        else:
            st.error("Enter a customer name first")
    st.table(pd.DataFrame(st.session_state.rows))
    with st.expander("Shipping details"):
        st.write("Orders ship within 2 working days.")
        st.text_input("Delivery note", key="note")

with history_tab:
    st.subheader("History")
    st.write(f"{len(st.session_state.rows)} orders so far, prices in {currency}")
